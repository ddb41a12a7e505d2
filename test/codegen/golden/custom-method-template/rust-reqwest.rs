// Cargo.toml: reqwest = { version = "0.12" }, tokio = { version = "1", features = ["full"] }

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let client = reqwest::Client::new();
    let response = client
        .request(reqwest::Method::from_bytes(b"PROPFIND")?, "{{baseUrl}}/dav/{{folder}}?depth={{depth}}")
        .header("Depth", "1")
        .send()
        .await?;

    println!("{}", response.status().as_u16());
    println!("{}", response.text().await?);
    Ok(())
}
