wget --quiet \
  --output-document=- \
  --method=POST \
  --header='Authorization: Bearer cached-token-123' \
  --header='Content-Type: application/json' \
  --body-data='{"query":"query User($id: ID!) { user(id: $id) { name } }","variables":{"id":"1"},"operationName":"User"}' \
  https://api.example.com/graphql
