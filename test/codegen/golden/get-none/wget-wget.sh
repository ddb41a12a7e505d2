wget --quiet \
  --output-document=- \
  --method=GET \
  --header='Accept: application/json' \
  --header='X-Trace: abc' \
  'https://api.example.com/users?page=2&sort=name'
