//! A hyper 1.x HTTP/1 server on magpie-async: `GET /` says hello, `POST /echo` sends the
//! request body back, anything else is 404. Malformed requests get hyper's 400.
//!
//! ```text
//! cargo run --release -p magpie-async --features hyper --example hello_hyper -- 127.0.0.1:3000
//! curl localhost:3000/ ; curl -d hi localhost:3000/echo
//! ```
//! The accept loop and the serving code are public so the integration test can start
//! the same server in-process.

use std::convert::Infallible;
use std::net::SocketAddr;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use magpie_async::hyper_rt::HyperIo;
use magpie_async::net::TcpListener;

/// The service: hello, echo, or 404.
pub async fn hello_echo(req: Request<Incoming>) -> Result<Response<Full<Bytes>>, Infallible> {
    let response = match (req.method(), req.uri().path()) {
        (&Method::GET, "/") => Response::new(Full::new(Bytes::from_static(b"Hello, World!"))),
        (&Method::POST, "/echo") => match req.into_body().collect().await {
            Ok(body) => Response::new(Full::new(body.to_bytes())),
            Err(_) => status(StatusCode::BAD_REQUEST),
        },
        _ => status(StatusCode::NOT_FOUND),
    };
    Ok(response)
}

fn status(code: StatusCode) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::new()));
    *response.status_mut() = code;
    response
}

/// Accepts connections forever, serving each in its own task.
pub async fn serve(listener: TcpListener) -> std::io::Result<()> {
    loop {
        let (stream, _) = listener.accept().await?;
        magpie_async::spawn(async move {
            // A connection error (reset, malformed request after hyper's 400) ends only
            // that connection.
            let _ = http1::Builder::new()
                .serve_connection(HyperIo::new(stream), service_fn(hello_echo))
                .await;
        });
    }
}

#[allow(dead_code)] // the integration test includes this file for `serve` only
fn main() -> std::process::ExitCode {
    let arg = std::env::args().nth(1);
    let addr: SocketAddr = match arg.as_deref().unwrap_or("127.0.0.1:3000").parse() {
        Ok(addr) => addr,
        Err(e) => {
            eprintln!("hello_hyper: ADDRESS `{}`: {e}", arg.unwrap_or_default());
            eprintln!("usage: hello_hyper [ADDRESS], e.g. 127.0.0.1:3000");
            return std::process::ExitCode::from(2);
        }
    };
    match run(addr) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hello_hyper: {addr}: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// Serves on `addr` until the process is stopped.
#[allow(dead_code)]
fn run(addr: SocketAddr) -> std::io::Result<()> {
    let rt = magpie_async::Builder::new().build()?;
    rt.block_on(async {
        let listener = TcpListener::bind(addr)?;
        println!("listening on http://{}", listener.local_addr()?);
        serve(listener).await
    })
}
