//! A TCP echo server and its clients on one magpie-async runtime: spawning from
//! inside tasks, the runtime's sockets, an async-io timer, a panicking task whose
//! `JoinHandle` reports the panic while the runtime keeps serving, and `abort`.
//!
//! ```sh
//! cargo run --release -p magpie-async --example echo -- 200   # number of clients
//! ```

use std::io;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use futures_lite::{AsyncReadExt, AsyncWriteExt};
use magpie_async::net::{TcpListener, TcpStream};
use magpie_async::{Builder, Timer};

/// Echoes everything a client sends until it closes its side.
async fn echo(stream: TcpStream) -> io::Result<()> {
    let mut buf = [0u8; 4096];
    let mut stream = &stream;
    loop {
        let n = stream.read(&mut buf).await?;
        if n == 0 {
            return Ok(());
        }
        stream.write_all(&buf[..n]).await?;
    }
}

/// Sends a few messages and checks that each comes back unchanged.
async fn client(addr: std::net::SocketAddr, id: usize) -> io::Result<()> {
    let mut stream = TcpStream::connect(addr).await?;
    for round in 0..10 {
        let message = format!("client {id}, message {round}\n");
        stream.write_all(message.as_bytes()).await?;
        let mut back = vec![0; message.len()];
        stream.read_exact(&mut back).await?;
        assert_eq!(back, message.as_bytes(), "the echo differs");
    }
    Ok(())
}

fn main() -> ExitCode {
    let clients: usize = match std::env::args().nth(1) {
        None => 100,
        Some(arg) => match arg.parse() {
            Ok(n) => n,
            Err(e) => {
                eprintln!("echo: CLIENTS `{arg}`: {e}\nusage: echo [CLIENTS]");
                return ExitCode::from(2);
            }
        },
    };
    match run(clients) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("echo: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The server, `clients` clients, a timer, a panicking task and `abort`.
fn run(clients: usize) -> io::Result<()> {
    let rt = Builder::new().worker_threads(2).build()?;
    rt.block_on(async {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let addr = listener.local_addr()?;
        // The server: one task per connection. It runs until aborted.
        let mut server = magpie_async::spawn(async move {
            loop {
                let (stream, _) = listener.accept().await?;
                magpie_async::spawn(echo(stream));
            }
            #[allow(unreachable_code)]
            io::Result::Ok(())
        });

        let start = Instant::now();
        let tasks: Vec<_> = (0..clients)
            .map(|id| magpie_async::spawn(client(addr, id)))
            .collect();
        for task in tasks {
            // The outer `?` is the task's fate (a panic would be a JoinError), the
            // inner one its I/O result.
            task.await.map_err(io::Error::other)??;
        }
        println!(
            "{clients} clients x 10 messages echoed in {:.1} ms",
            start.elapsed().as_secs_f64() * 1e3
        );

        Timer::after(Duration::from_millis(20)).await;
        println!("a 20 ms timer fired");

        // A task's panic comes back through its handle; the other tasks and the runtime
        // carry on. (A one-line hook instead of the default report and backtrace.)
        let default_hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|info| eprintln!("hook: {info}")));
        let failed = magpie_async::spawn(async { panic!("this task fails on purpose") }).await;
        std::panic::set_hook(default_hook);
        println!(
            "panicking task: JoinError, is_panic = {}",
            failed.unwrap_err().is_panic()
        );
        client(addr, clients).await?;
        println!("the server still echoes after the panic");

        server.abort();
        let stopped = server.await;
        println!(
            "server aborted: cancelled = {}",
            stopped.unwrap_err().is_cancelled()
        );
        Ok(())
    })
}
