# AWS Signature Version 4: the signature below was made for one send and expires soon.
# This code cannot sign each request: sign it again before sending (Ferry does this on every send).
$headers = @{
  'X-Amz-Date' = '20260101T000000Z'
  'Authorization' = 'AWS4-HMAC-SHA256 Credential=AKID/20260101/us-east-1/s3/aws4_request, SignedHeaders=host;x-amz-date, Signature=abc'
}
$response = Invoke-WebRequest -Uri https://api.example.com/bucket/key `
  -Method Get `
  -Headers $headers `
  -SkipHeaderValidation
$response.StatusCode
$response.Content
