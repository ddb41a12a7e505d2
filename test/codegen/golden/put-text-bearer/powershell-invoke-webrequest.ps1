$headers = @{
  'Authorization' = 'Bearer eyJhbGciOi.J9'
}
$body = [Text.Encoding]::UTF8.GetBytes('Hello, world.
Second line.')
$response = Invoke-WebRequest -Uri https://api.example.com/notes/1 `
  -Method Put `
  -Headers $headers `
  -Body $body `
  -ContentType text/plain `
  -SkipHeaderValidation
$response.StatusCode
$response.Content
