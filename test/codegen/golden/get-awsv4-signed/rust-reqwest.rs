// AWS Signature Version 4: the signature below was made for one send and expires soon.
// This code cannot sign each request: sign it again before sending (Ferry does this on every send).
// Cargo.toml: reqwest = { version = "0.12" }, tokio = { version = "1", features = ["full"] }

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let client = reqwest::Client::new();
    let response = client
        .request(reqwest::Method::GET, "https://api.example.com/bucket/key")
        .header("X-Amz-Date", "20260101T000000Z")
        .header("Authorization", "AWS4-HMAC-SHA256 Credential=AKID/20260101/us-east-1/s3/aws4_request, SignedHeaders=host;x-amz-date, Signature=abc")
        .send()
        .await?;

    println!("{}", response.status().as_u16());
    println!("{}", response.text().await?);
    Ok(())
}
