//! Runs the example receiver: `WEBHOOK_SECRET=whsec_... PORT=8080 cargo run -p
//! opinion-example-receiver`.

use std::net::TcpListener;

fn main() -> std::io::Result<()> {
    let secret = std::env::var("WEBHOOK_SECRET").expect("WEBHOOK_SECRET: the endpoint's whsec_ secret");
    let port = std::env::var("PORT").unwrap_or_else(|_| "0".to_owned());
    let listener = TcpListener::bind(format!("127.0.0.1:{port}"))?;
    println!("listening on {}", listener.local_addr()?.port());
    let receiver = opinion_example_receiver::Receiver::new(&secret).expect("WEBHOOK_SECRET must be whsec_ and base64");
    receiver.serve(listener, std::io::stdout())
}
