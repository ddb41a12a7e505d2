wget --quiet \
  --output-document=- \
  --method=POST \
  --header='Content-Type: application/x-www-form-urlencoded' \
  --body-data='user=ada&pass=p%40ss+word' \
  'https://api.example.com/login?api_key=k3y%2B1'
