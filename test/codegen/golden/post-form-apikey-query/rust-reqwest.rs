// Cargo.toml: reqwest = { version = "0.12" }, tokio = { version = "1", features = ["full"] }

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let client = reqwest::Client::new();
    let response = client
        .request(reqwest::Method::POST, "https://api.example.com/login?api_key=k3y%2B1")
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body("user=ada&pass=p%40ss+word")
        .send()
        .await?;

    println!("{}", response.status().as_u16());
    println!("{}", response.text().await?);
    Ok(())
}
