# OAuth 2.0: Ferry has no cached access token for this request.
# Get one (Auth tab, Get new access token, or the token endpoint) and put it in place of <access-token>.
$headers = @{
  'Authorization' = 'Bearer <access-token>'
}
$response = Invoke-WebRequest -Uri https://api.example.com/me `
  -Method Get `
  -Headers $headers `
  -SkipHeaderValidation
$response.StatusCode
$response.Content
