$headers = @{
  'X-Workspace' = 'ferry'
  'Authorization' = 'Basic dXNlcjpwQHNz'
}
$body = [Text.Encoding]::UTF8.GetBytes('{
  "name": "Ada",
  "tags": ["a", "b"]
}')
$response = Invoke-WebRequest -Uri https://api.example.com/users `
  -Method Post `
  -Headers $headers `
  -Body $body `
  -ContentType application/json `
  -SkipHeaderValidation
$response.StatusCode
$response.Content
