$body = [Convert]::FromBase64String('AAEC/v8iXD8KQQ==')
$response = Invoke-WebRequest -Uri https://api.example.com/blobs `
  -Method Post `
  -Body $body `
  -ContentType application/octet-stream `
  -SkipHeaderValidation
$response.StatusCode
$response.Content
