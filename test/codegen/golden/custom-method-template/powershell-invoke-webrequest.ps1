$headers = @{
  'Depth' = '1'
}
$response = Invoke-WebRequest -Uri '{{baseUrl}}/dav/{{folder}}?depth={{depth}}' `
  -CustomMethod PROPFIND `
  -Headers $headers `
  -SkipHeaderValidation
$response.StatusCode
$response.Content
