//! The hello_hyper example's server, started in-process on 127.0.0.1:0: connection
//! churn leaks no file descriptor, malformed requests get a 400 and serving goes on.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use magpie_async::net::TcpListener;
use magpie_async::Runtime;

#[allow(dead_code)]
#[path = "../examples/hello_hyper.rs"]
mod hello_hyper;

fn start() -> (Runtime, SocketAddr) {
    let rt = magpie_async::Builder::new()
        .worker_threads(2)
        .build()
        .unwrap();
    let listener = rt.block_on(async { TcpListener::bind("127.0.0.1:0") });
    let listener = listener.unwrap();
    let addr = listener.local_addr().unwrap();
    rt.spawn(hello_hyper::serve(listener));
    (rt, addr)
}

/// One request on a fresh connection; the whole response as text.
fn request(addr: SocketAddr, raw: &[u8]) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s.write_all(raw).unwrap();
    let mut out = String::new();
    let _ = s.read_to_string(&mut out);
    out
}

fn open_fds() -> usize {
    std::fs::read_dir("/proc/self/fd").unwrap().count()
}

#[test]
fn hello_and_echo() {
    let (_rt, addr) = start();
    let hello = request(
        addr,
        b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    assert!(hello.starts_with("HTTP/1.1 200"), "{hello}");
    assert!(hello.ends_with("Hello, World!"), "{hello}");
    let echo = request(
        addr,
        b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nConnection: close\r\n\r\nmagpi",
    );
    assert!(
        echo.starts_with("HTTP/1.1 200") && echo.ends_with("magpi"),
        "{echo}"
    );
    let missing = request(
        addr,
        b"GET /nope HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    assert!(missing.starts_with("HTTP/1.1 404"), "{missing}");
}

#[test]
fn malformed_requests_get_400_and_the_server_keeps_serving() {
    let (_rt, addr) = start();
    for garbage in [
        &b"GARBAGE\r\n\r\n"[..],
        b"GET / HTTP/9.9\r\n\r\n",
        b"GET / HTTP/1.1\r\nBad Header Line\r\n\r\n",
        b"POST /echo HTTP/1.1\r\nContent-Length: nope\r\n\r\n",
    ] {
        let reply = request(addr, garbage);
        assert!(
            reply.starts_with("HTTP/1.1 400"),
            "{:?} -> {reply:?}",
            String::from_utf8_lossy(garbage)
        );
        let ok = request(
            addr,
            b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        );
        assert!(ok.starts_with("HTTP/1.1 200"), "{ok}");
    }
}

#[test]
fn ten_thousand_connection_cycles_leak_no_fd() {
    const CYCLES: usize = 10_000;
    let (rt, addr) = start();
    // Warm up (lazily allocated state of the server and the test) before counting.
    assert!(request(
        addr,
        b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .starts_with("HTTP/1.1 200"));
    let before = open_fds();
    for i in 0..CYCLES {
        let mut s = TcpStream::connect(addr).unwrap();
        if i % 100 == 0 {
            // Now and then a full request, to check the server still answers.
            s.write_all(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                .unwrap();
            let mut out = String::new();
            s.read_to_string(&mut out).unwrap();
            assert!(out.starts_with("HTTP/1.1 200"), "cycle {i}: {out}");
        }
        drop(s);
    }
    // The server closes its side when it reads EOF; wait (bounded) for the last ones.
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut after = open_fds();
    while after > before && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
        after = open_fds();
    }
    assert!(
        after <= before,
        "{before} fds before {CYCLES} cycles, {after} after"
    );
    drop(rt);
}
