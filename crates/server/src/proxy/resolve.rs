//! The proxy's DNS resolver: every answer is filtered through the policy, so the connection
//! is always made to an address that was checked (a name that resolves to a private address,
//! or re-resolves to one later, never gets a connection).

use std::{
    collections::HashMap,
    net::{IpAddr, SocketAddr},
    sync::Arc,
};

use reqwest::dns::{Addrs, Name, Resolve, Resolving};

use super::policy::Policy;

/// A refusal raised inside the resolver, recognised in the error chain afterwards.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(crate) struct Unreachable(pub(crate) String);

#[derive(Clone)]
pub(crate) struct FilteringResolver {
    pub(crate) policy: Arc<Policy>,
    /// Fixed answers (tests), checked like DNS answers.
    pub(crate) hosts: Arc<HashMap<String, IpAddr>>,
}

impl FilteringResolver {
    /// The addresses of `host` that the policy lets us connect to; an error names why none.
    pub(crate) async fn lookup(&self, host: &str) -> Result<Vec<IpAddr>, Unreachable> {
        let host = host.trim_end_matches('.').to_ascii_lowercase();
        let all: Vec<IpAddr> = match self.hosts.get(&host) {
            Some(ip) => vec![*ip],
            None => tokio::net::lookup_host((host.as_str(), 0))
                .await
                .map_err(|e| Unreachable(format!("cannot resolve {host}: {e}")))?
                .map(|a| a.ip())
                .collect(),
        };
        let allowed: Vec<IpAddr> =
            all.iter().copied().filter(|ip| self.policy.may_connect(&host, *ip)).collect();
        if allowed.is_empty() {
            let first = all.first().map_or_else(|| "nothing".to_owned(), |ip| ip.to_string());
            return Err(Unreachable(format!(
                "host {host} resolves to {first}, which is not public"
            )));
        }
        Ok(allowed)
    }
}

impl Resolve for FilteringResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let this = self.clone();
        Box::pin(async move {
            let ips = this.lookup(name.as_str()).await?;
            let addrs: Addrs = Box::new(ips.into_iter().map(|ip| SocketAddr::new(ip, 0)));
            Ok(addrs)
        })
    }
}
