curl https://api.example.com/users \
  -H 'X-Workspace: ferry' \
  -H 'Authorization: Basic dXNlcjpwQHNz' \
  -H 'Content-Type: application/json' \
  --data-raw '{
  "name": "Ada",
  "tags": ["a", "b"]
}'
