# Host and Content-Length left out: Invoke-WebRequest sets them from the URL and the body.
# Connection left out: it manages one connection, not the request, and Ferry does not send it either.
# Accept-Encoding left out: Invoke-WebRequest sends its own and decompresses the answer.
# Body left out: Invoke-WebRequest cannot send a body with GET.
$headers = @{
  'X-Empty' = ''
}
$response = Invoke-WebRequest -Uri https://api.example.com/things `
  -Method Get `
  -Headers $headers `
  -ContentType application/json `
  -SkipHeaderValidation
$response.StatusCode
$response.Content
