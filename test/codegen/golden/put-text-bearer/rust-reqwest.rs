// Cargo.toml: reqwest = { version = "0.12" }, tokio = { version = "1", features = ["full"] }

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let client = reqwest::Client::new();
    let response = client
        .request(reqwest::Method::PUT, "https://api.example.com/notes/1")
        .header("Authorization", "Bearer eyJhbGciOi.J9")
        .header("Content-Type", "text/plain")
        .body("Hello, world.\nSecond line.")
        .send()
        .await?;

    println!("{}", response.status().as_u16());
    println!("{}", response.text().await?);
    Ok(())
}
