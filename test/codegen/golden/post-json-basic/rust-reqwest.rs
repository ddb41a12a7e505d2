// Cargo.toml: reqwest = { version = "0.12" }, tokio = { version = "1", features = ["full"] }

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let client = reqwest::Client::new();
    let response = client
        .request(reqwest::Method::POST, "https://api.example.com/users")
        .header("X-Workspace", "ferry")
        .header("Authorization", "Basic dXNlcjpwQHNz")
        .header("Content-Type", "application/json")
        .body("{\n  \"name\": \"Ada\",\n  \"tags\": [\"a\", \"b\"]\n}")
        .send()
        .await?;

    println!("{}", response.status().as_u16());
    println!("{}", response.text().await?);
    Ok(())
}
