# Content-Type left out: Invoke-WebRequest sets it with the multipart boundary.
$body = [System.Net.Http.MultipartFormDataContent]::new()
$part = [System.Net.Http.StringContent]::new('Holiday')
$part.Headers.ContentType = $null
$body.Add($part, 'title')
$part = [System.Net.Http.StringContent]::new('{"a":1}')
$part.Headers.ContentType = [System.Net.Http.Headers.MediaTypeHeaderValue]::Parse('application/json')
$body.Add($part, 'meta')
$part = [System.Net.Http.ByteArrayContent]::new([IO.File]::ReadAllBytes('/home/me/api/files/photo.png'))
$part.Headers.ContentType = [System.Net.Http.Headers.MediaTypeHeaderValue]::Parse('image/png')
$body.Add($part, 'photo', 'photo.png')
$response = Invoke-WebRequest -Uri https://api.example.com/upload `
  -Method Post `
  -Body $body `
  -SkipHeaderValidation
$response.StatusCode
$response.Content
