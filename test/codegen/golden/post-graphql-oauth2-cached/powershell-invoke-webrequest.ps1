$headers = @{
  'Authorization' = 'Bearer cached-token-123'
}
$body = [Text.Encoding]::UTF8.GetBytes('{"query":"query User($id: ID!) { user(id: $id) { name } }","variables":{"id":"1"},"operationName":"User"}')
$response = Invoke-WebRequest -Uri https://api.example.com/graphql `
  -Method Post `
  -Headers $headers `
  -Body $body `
  -ContentType application/json `
  -SkipHeaderValidation
$response.StatusCode
$response.Content
