//! The benchmarked server: hyper 1.x HTTP/1 answering `GET /` with "Hello, World!" (and
//! echoing `POST /echo`), the same service on every runtime; only the socket type and
//! the spawn differ. It runs in a child process (`magpie bench-http-server`) so its CPU
//! time can be read from /proc and it cannot disturb the measuring process.

use std::convert::Infallible;
use std::io::Write;
use std::net::TcpListener;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};

use crate::asyncrt::runtimes::{Kind, Rt, Spawner};

async fn hello(req: Request<Incoming>) -> Result<Response<Full<Bytes>>, Infallible> {
    Ok(match (req.method(), req.uri().path()) {
        (&Method::GET, "/") => Response::new(Full::new(Bytes::from_static(b"Hello, World!"))),
        (&Method::POST, "/echo") => match req.into_body().collect().await {
            Ok(body) => Response::new(Full::new(body.to_bytes())),
            Err(_) => status(StatusCode::BAD_REQUEST),
        },
        _ => status(StatusCode::NOT_FOUND),
    })
}

fn status(code: StatusCode) -> Response<Full<Bytes>> {
    let mut r = Response::new(Full::new(Bytes::new()));
    *r.status_mut() = code;
    r
}

async fn connection<I>(io: I)
where
    I: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    let _ = http1::Builder::new()
        .serve_connection(io, service_fn(hello))
        .await;
}

/// Runs the server of `kind` with `workers` workers on 127.0.0.1 (an OS-chosen port),
/// prints `listening <addr>` on stdout and serves until the process is killed. The
/// accept loop is a task on the runtime, so the server has exactly its `workers`
/// threads (plus async-io's helper thread for smol). magpie uses its own sockets
/// (`magpie_async::net`, mio) with `HyperIo`, smol async-io's with magpie-async's
/// `HyperAsyncIo` (the same read path), tokio hyper-util's adapter.
pub fn serve(kind: Kind, workers: usize) -> std::io::Result<()> {
    let rt = Rt::new(kind, workers).map_err(|e| std::io::Error::other(e.to_string()))?;
    let listener = TcpListener::bind(("127.0.0.1", 0))?;
    let addr = listener.local_addr()?;
    let spawner = rt.spawner();
    match kind {
        Kind::Tokio => {
            let _guard = match &rt {
                Rt::Tokio(t) => t.enter(),
                _ => unreachable!(),
            };
            listener.set_nonblocking(true)?;
            let listener = tokio::net::TcpListener::from_std(listener)?;
            let sp = spawner.clone();
            spawner.spawn(async move {
                while let Ok((stream, _)) = listener.accept().await {
                    let _ = stream.set_nodelay(true);
                    sp.spawn(connection(hyper_util::rt::TokioIo::new(stream)));
                }
            });
        }
        Kind::Magpie => {
            let sp = spawner.clone();
            // Registered from inside the runtime (a task), with its I/O driver.
            spawner.spawn(async move {
                match magpie_async::net::TcpListener::from_std(listener) {
                    Ok(listener) => accept_magpie(listener, sp).await,
                    Err(e) => eprintln!("bench-http-server: {e}"),
                }
            });
        }
        Kind::Smol => {
            let listener = async_io::Async::new(listener)?;
            let sp = spawner.clone();
            spawner.spawn(accept_futures_io(listener, sp));
        }
    }
    let mut out = std::io::stdout().lock();
    writeln!(out, "listening {addr}")?;
    out.flush()?;
    drop(out);
    loop {
        std::thread::park();
    }
}

async fn accept_futures_io(listener: async_io::Async<TcpListener>, sp: Spawner) {
    while let Ok((stream, _)) = listener.accept().await {
        let _ = stream.get_ref().set_nodelay(true);
        sp.spawn(connection(magpie_async::hyper_rt::HyperAsyncIo::new(
            stream,
        )));
    }
}

async fn accept_magpie(listener: magpie_async::net::TcpListener, sp: Spawner) {
    while let Ok((stream, _)) = listener.accept().await {
        let _ = stream.set_nodelay(true);
        sp.spawn(connection(magpie_async::hyper_rt::HyperIo::new(stream)));
    }
}
