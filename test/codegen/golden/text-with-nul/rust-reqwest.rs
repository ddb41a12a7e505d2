// Cargo.toml: reqwest = { version = "0.12" }, tokio = { version = "1", features = ["full"] }

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let client = reqwest::Client::new();
    let response = client
        .request(reqwest::Method::POST, "https://api.example.com/raw")
        .header("Content-Type", "text/plain")
        .body("a\u{0}b\u{1}c\u{1b}[0m\u{7f}d")
        .send()
        .await?;

    println!("{}", response.status().as_u16());
    println!("{}", response.text().await?);
    Ok(())
}
