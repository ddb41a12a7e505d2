$headers = @{
  'Accept' = 'application/json'
  'X-Trace' = 'abc'
}
$response = Invoke-WebRequest -Uri 'https://api.example.com/users?page=2&sort=name' `
  -Method Get `
  -Headers $headers `
  -SkipHeaderValidation
$response.StatusCode
$response.Content
