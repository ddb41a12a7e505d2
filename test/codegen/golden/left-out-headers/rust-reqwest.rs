// Host and Content-Length left out: reqwest sets them from the URL and the body.
// Connection left out: it manages one connection, not the request, and Ferry does not send it either.
// Cargo.toml: reqwest = { version = "0.12" }, tokio = { version = "1", features = ["full"] }

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let client = reqwest::Client::new();
    let response = client
        .request(reqwest::Method::GET, "https://api.example.com/things")
        .header("Accept-Encoding", "gzip")
        .header("Content-Type", "application/json")
        .header("X-Empty", "")
        .body("{\"q\":\"body on GET\"}")
        .send()
        .await?;

    println!("{}", response.status().as_u16());
    println!("{}", response.text().await?);
    Ok(())
}
