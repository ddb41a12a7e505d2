$body = [Text.Encoding]::UTF8.GetBytes('user=ada&pass=p%40ss+word')
$response = Invoke-WebRequest -Uri 'https://api.example.com/login?api_key=k3y%2B1' `
  -Method Post `
  -Body $body `
  -ContentType application/x-www-form-urlencoded `
  -SkipHeaderValidation
$response.StatusCode
$response.Content
