wget --quiet \
  --output-document=- \
  --method=PUT \
  --header='Authorization: Bearer eyJhbGciOi.J9' \
  --header='Content-Type: text/plain' \
  --body-data='Hello, world.
Second line.' \
  https://api.example.com/notes/1
