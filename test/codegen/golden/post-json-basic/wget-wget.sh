wget --quiet \
  --output-document=- \
  --method=POST \
  --header='X-Workspace: ferry' \
  --header='Authorization: Basic dXNlcjpwQHNz' \
  --header='Content-Type: application/json' \
  --body-data='{
  "name": "Ada",
  "tags": ["a", "b"]
}' \
  https://api.example.com/users
