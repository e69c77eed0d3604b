//! The kit sees what a page test must see: a console error, a request to another origin,
//! and the whole page in a screenshot.

use opinion_testkit_browser::{Browser, WindowSize};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// A page that logs an error, fetches from a second origin and is taller than a phone.
const PAGE: &str = "<!doctype html><html><head><title>kit</title></head>\
<body style=\"margin:0\"><div style=\"height:2000px\">tall</div>\
<script>console.error('kit-error'); fetch('http://127.0.0.2:9/elsewhere').catch(function () {});</script>\
</body></html>";

/// Serves `PAGE` to every request on a free port; returns the origin.
async fn serve_page() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
    let origin = format!("http://{}", listener.local_addr().expect("bound"));
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let mut head = [0_u8; 4096];
            let _ = stream.read(&mut head).await;
            let answer = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{PAGE}",
                PAGE.len()
            );
            let _ = stream.write_all(answer.as_bytes()).await;
        }
    });
    origin
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_kit_reports_console_errors_foreign_requests_and_shoots_the_whole_page() {
    let origin = serve_page().await;
    let browser = Browser::start("testkit-browser").await;
    browser.resize(WindowSize::PHONE).await;
    browser.open(&format!("{origin}/page")).await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;

    let console = browser.console().await;
    assert!(
        console
            .iter()
            .any(|entry| entry.level == "SEVERE" && entry.message.contains("kit-error")),
        "{console:#?}"
    );
    let requests = browser.requests().await;
    assert_eq!(
        requests.first().map(String::as_str),
        Some(format!("{origin}/page").as_str())
    );
    assert!(
        requests.iter().any(|url| url == "http://127.0.0.2:9/elsewhere"),
        "{requests:#?}"
    );

    let path = browser.screenshot("kit-phone").await;
    let png = std::fs::read(&path).expect("the screenshot is written");
    assert_eq!(&png[1..4], b"PNG");
    let height = u32::from_be_bytes([png[20], png[21], png[22], png[23]]);
    assert!(height >= 2000, "the whole page is in the screenshot, {height} px high");
    browser.close().await;
}
