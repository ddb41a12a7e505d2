// Content-Type left out: reqwest sets it with the multipart boundary.
// Cargo.toml: reqwest = { version = "0.12", features = ["multipart"] }, tokio = { version = "1", features = ["full"] }

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let client = reqwest::Client::new();
    let form = reqwest::multipart::Form::new()
        .text("title", "Holiday")
        .part("meta", reqwest::multipart::Part::text("{\"a\":1}").mime_str("application/json")?)
        .part("photo", reqwest::multipart::Part::bytes(std::fs::read("/home/me/api/files/photo.png")?).file_name("photo.png").mime_str("image/png")?);

    let response = client
        .request(reqwest::Method::POST, "https://api.example.com/upload")
        .multipart(form)
        .send()
        .await?;

    println!("{}", response.status().as_u16());
    println!("{}", response.text().await?);
    Ok(())
}
