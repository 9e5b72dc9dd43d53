//! `magpie_async::net` on the mio driver: many concurrent echo connections (small
//! messages, and large ones that fill the socket buffers so writes hit `WouldBlock`),
//! EOF, connect errors, and a runtime dropped with tasks waiting on sockets.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use futures_lite::{AsyncReadExt, AsyncWriteExt};
use magpie_async::net::{TcpListener, TcpStream};
use magpie_async::{Builder, Runtime};

fn runtime() -> Runtime {
    Builder::new().worker_threads(2).build().unwrap()
}

/// An echo server task on 127.0.0.1; returns its address.
fn echo_server(rt: &Runtime) -> std::net::SocketAddr {
    let listener = rt
        .block_on(async { TcpListener::bind("127.0.0.1:0") })
        .unwrap();
    let addr = listener.local_addr().unwrap();
    rt.spawn(async move {
        loop {
            let (mut s, _) = listener.accept().await.unwrap();
            magpie_async::spawn(async move {
                let mut buf = vec![0; 64 * 1024];
                loop {
                    match s.read(&mut buf).await {
                        Ok(0) | Err(_) => break,
                        Ok(n) => {
                            if s.write_all(&buf[..n]).await.is_err() {
                                break;
                            }
                        }
                    }
                }
            });
        }
    });
    addr
}

#[test]
fn many_connections_echo_small_and_large_messages() {
    const CONNS: usize = 200;
    const ROUNDS: usize = 20;
    let rt = runtime();
    let addr = echo_server(&rt);
    let total = rt.block_on(async {
        let clients: Vec<_> = (0..CONNS)
            .map(|c| {
                magpie_async::spawn(async move {
                    let s = TcpStream::connect(addr).await.unwrap();
                    s.set_nodelay(true).unwrap();
                    let mut bytes = 0;
                    for r in 0..ROUNDS {
                        // Every 10th connection sends 1 MiB at once: larger than the
                        // socket buffers, so both sides wait for writability.
                        let len = if c % 10 == 0 {
                            1 << 20
                        } else {
                            1 + (c * 7 + r) % 300
                        };
                        let msg: Vec<u8> = (0..len).map(|i| (i ^ c ^ r) as u8).collect();
                        // `&TcpStream` reads and writes too: both halves at once.
                        let (mut rd, mut wr) = (&s, &s);
                        let writer = async { wr.write_all(&msg).await.unwrap() };
                        let reader = async {
                            let mut back = vec![0; len];
                            rd.read_exact(&mut back).await.unwrap();
                            back
                        };
                        let ((), back) = futures_lite::future::zip(writer, reader).await;
                        assert!(back == msg, "connection {c} round {r}");
                        bytes += len;
                    }
                    bytes
                })
            })
            .collect();
        let mut total = 0;
        for c in clients {
            total += c.await.unwrap();
        }
        total
    });
    assert!(total > CONNS * ROUNDS);
}

#[test]
fn eof_and_connect_errors() {
    let rt = runtime();
    rt.block_on(async {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let mut client = TcpStream::connect(addr).await.unwrap();
        let (server, peer) = listener.accept().await.unwrap();
        assert_eq!(peer, client.local_addr().unwrap());
        drop(server);
        let mut buf = [0; 8];
        assert_eq!(client.read(&mut buf).await.unwrap(), 0);
        drop(listener);
        // Nothing listens there any more.
        assert!(TcpStream::connect(addr).await.is_err());
    });
    // Outside a runtime there is no driver to register with.
    assert!(TcpListener::bind("127.0.0.1:0").is_err());
}

#[test]
fn dropping_the_runtime_drops_tasks_waiting_on_sockets() {
    struct Guard(Arc<AtomicUsize>);
    impl Drop for Guard {
        fn drop(&mut self) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }
    let dropped = Arc::new(AtomicUsize::new(0));
    let rt = runtime();
    let listener = rt
        .block_on(async { TcpListener::bind("127.0.0.1:0") })
        .unwrap();
    let addr = listener.local_addr().unwrap();
    let _clients: Vec<_> = (0..10)
        .map(|_| std::net::TcpStream::connect(addr).unwrap())
        .collect();
    let d = dropped.clone();
    rt.spawn(async move {
        for _ in 0..10 {
            let (mut s, _) = listener.accept().await.unwrap();
            let guard = Guard(d.clone());
            magpie_async::spawn(async move {
                let _guard = guard;
                let mut buf = [0; 1];
                let _ = s.read(&mut buf).await; // the clients never write
            });
        }
    });
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while rt.handle().live_tasks() < 10 && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    drop(rt);
    assert_eq!(dropped.load(Ordering::SeqCst), 10);
}

#[test]
fn tasks_accepting_on_one_shared_listener_are_all_woken() {
    const ACCEPTORS: usize = 3;
    let rt = runtime();
    let listener = Arc::new(
        rt.block_on(async { TcpListener::bind("127.0.0.1:0") })
            .unwrap(),
    );
    let addr = listener.local_addr().unwrap();
    let (polled_tx, polled_rx) = std::sync::mpsc::channel();
    let (accepted_tx, accepted_rx) = std::sync::mpsc::channel();
    for _ in 0..ACCEPTORS {
        let (listener, polled_tx, accepted_tx) =
            (listener.clone(), polled_tx.clone(), accepted_tx.clone());
        rt.spawn(async move {
            // The first accept finds no connection (the listener starts out "ready").
            let _ = futures_lite::future::poll_once(listener.accept()).await;
            polled_tx.send(()).unwrap();
            let accepted = listener.accept().await.unwrap();
            accepted_tx.send(accepted).unwrap();
        });
    }
    for _ in 0..ACCEPTORS {
        polled_rx.recv().unwrap();
    }
    // Every acceptor is waiting; one connection each.
    std::thread::sleep(Duration::from_millis(50));
    let clients: Vec<_> = (0..ACCEPTORS)
        .map(|_| std::net::TcpStream::connect(addr).unwrap())
        .collect();
    for i in 0..ACCEPTORS {
        accepted_rx
            .recv_timeout(Duration::from_secs(10))
            .unwrap_or_else(|e| panic!("acceptor {i} of {ACCEPTORS} never woke: {e}"));
    }
    drop(clients);
}
