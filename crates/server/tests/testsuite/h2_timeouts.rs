//! HTTP/2 (h2c with prior knowledge, from a raw client): a connection with no request in
//! flight is closed with a GOAWAY after the idle timeout, even though its client answers every
//! PING; a client that grants no flow-control window (so the answer never fills the socket) is
//! cut off after the send timeout.

use std::time::Duration;

use stillpoint_server::{ServeConfig, Timeouts};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
    time::timeout,
};

use crate::{client::Server, support::TestSite};

const IDLE: Duration = Duration::from_secs(1);
const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
const DATA: u8 = 0;
const HEADERS: u8 = 1;
const SETTINGS: u8 = 4;
const PING: u8 = 6;
const GOAWAY: u8 = 7;

fn frame(kind: u8, flags: u8, stream: u32, payload: &[u8]) -> Vec<u8> {
    let mut frame = (payload.len() as u32).to_be_bytes()[1..].to_vec();
    frame.extend([kind, flags]);
    frame.extend(stream.to_be_bytes());
    frame.extend(payload);
    frame
}

/// `GET /` on stream 1: HPACK indexed `:method GET`, `:scheme http`, `:path /`, and a literal
/// `:authority`.
fn get_home() -> Vec<u8> {
    let mut block = vec![0x82, 0x86, 0x84, 0x41, 9];
    block.extend(b"localhost");
    frame(HEADERS, 0x5, 1, &block)
}

/// Reads frames, acknowledging SETTINGS and answering PINGs, until the server closes the
/// connection; returns the kinds of the frames it sent.
async fn frames_until_closed(stream: &mut TcpStream) -> Vec<u8> {
    let mut kinds = Vec::new();
    loop {
        let mut header = [0u8; 9];
        if stream.read_exact(&mut header).await.is_err() {
            return kinds;
        }
        let len = u32::from_be_bytes([0, header[0], header[1], header[2]]) as usize;
        let mut payload = vec![0u8; len];
        if stream.read_exact(&mut payload).await.is_err() {
            return kinds;
        }
        let (kind, flags) = (header[3], header[4]);
        kinds.push(kind);
        let reply = match kind {
            SETTINGS if flags & 1 == 0 => frame(SETTINGS, 1, 0, &[]),
            PING if flags & 1 == 0 => frame(PING, 1, 0, &payload),
            _ => continue,
        };
        let _ = stream.write_all(&reply).await;
    }
}

#[tokio::test]
async fn an_idle_h2c_connection_is_closed_with_goaway() {
    let site = TestSite::new();
    let timeouts = Timeouts { h2_idle: IDLE, ..Timeouts::default() };
    let server = Server::start(ServeConfig { timeouts, ..site.config() }).await;
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    let mut hello = PREFACE.to_vec();
    hello.extend(frame(SETTINGS, 0, 0, &[]));
    hello.extend(get_home());
    stream.write_all(&hello).await.unwrap();
    let kinds = timeout(IDLE * 10, frames_until_closed(&mut stream))
        .await
        .expect("the idle connection was left open");
    assert!(kinds.contains(&HEADERS) && kinds.contains(&DATA), "no answer: {kinds:?}");
    assert_eq!(kinds.last(), Some(&GOAWAY), "{kinds:?}");
    server.stop().await;
}

#[tokio::test]
async fn a_client_that_grants_no_window_is_cut_off() {
    let site = TestSite::new();
    let timeouts = Timeouts { send: IDLE, h2_idle: IDLE * 3600 };
    let server = Server::start(ServeConfig { timeouts, ..site.config() }).await;
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    let mut hello = PREFACE.to_vec();
    // SETTINGS_INITIAL_WINDOW_SIZE = 0: no stream may send any DATA.
    hello.extend(frame(SETTINGS, 0, 0, &[0, 4, 0, 0, 0, 0]));
    hello.extend(get_home());
    stream.write_all(&hello).await.unwrap();
    let kinds = timeout(IDLE * 10, frames_until_closed(&mut stream))
        .await
        .expect("the stalled connection was left open");
    assert!(kinds.contains(&HEADERS) && !kinds.contains(&DATA), "{kinds:?}");
    server.stop().await;
}
