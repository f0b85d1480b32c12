//! Single flight per upstream URL: concurrent requests for the same URL share one fetch. The
//! first to arrive runs it; the others wait for its result. If the one running it goes away
//! (its client left), a waiting one takes over. The entry is removed when its last request
//! is done, so the map holds only URLs being fetched.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use tokio::sync::OnceCell;

pub(crate) struct Flights<T>(Mutex<HashMap<String, Arc<OnceCell<T>>>>);

impl<T> Default for Flights<T> {
    fn default() -> Self {
        Self(Mutex::new(HashMap::new()))
    }
}

/// One request's share in the flight for its URL.
pub(crate) struct Flight<'a, T> {
    flights: &'a Flights<T>,
    key: String,
    pub(crate) cell: Arc<OnceCell<T>>,
}

impl<T> Flights<T> {
    /// Joins the flight for `key`, starting one when there is none.
    pub(crate) fn join(&self, key: &str) -> Flight<'_, T> {
        let mut map = self.0.lock().expect("never poisoned");
        let cell = map.entry(key.to_owned()).or_default().clone();
        Flight { flights: self, key: key.to_owned(), cell }
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.0.lock().expect("never poisoned").len()
    }
}

impl<T> Drop for Flight<'_, T> {
    fn drop(&mut self) {
        let mut map = self.flights.0.lock().expect("never poisoned");
        // Only the map and this share hold it (others clone it under this lock): the last one.
        if map.get(&self.key).is_some_and(|cell| Arc::ptr_eq(cell, &self.cell))
            && Arc::strong_count(&self.cell) == 2
        {
            map.remove(&self.key);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::Flights;

    #[tokio::test]
    async fn one_run_per_flight_and_the_map_empties() {
        let flights = Flights::<usize>::default();
        let runs = AtomicUsize::new(0);
        let (gate, open) = tokio::sync::watch::channel(false);
        let share = || async {
            let flight = flights.join("u");
            let mut open = open.clone();
            *flight
                .cell
                .get_or_init(|| async {
                    let _ = open.wait_for(|o| *o).await;
                    runs.fetch_add(1, Ordering::SeqCst) + 1
                })
                .await
        };
        let release = async {
            tokio::task::yield_now().await;
            assert_eq!(flights.len(), 1);
            gate.send(true).unwrap();
        };
        let (a, b, c, ()) = tokio::join!(share(), share(), share(), release);
        assert_eq!([a, b, c], [1; 3]);
        assert_eq!(runs.load(Ordering::SeqCst), 1);
        assert_eq!(flights.len(), 0);
        // A new flight after the last one ended runs again.
        assert_eq!(share().await, 2);
    }

    #[tokio::test]
    async fn a_flight_whose_requests_all_left_is_removed() {
        let flights = Flights::<()>::default();
        let flight = flights.join("u");
        let pending = flight.cell.get_or_init(std::future::pending);
        let _ = tokio::time::timeout(std::time::Duration::from_millis(1), pending).await;
        drop(flight);
        assert_eq!(flights.len(), 0);
    }
}
