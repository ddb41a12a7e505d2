# The body is binary: it is decoded from Base64 into a temporary file.
body_file=$(mktemp)
base64 -d > "$body_file" <<'BASE64'
AAEC/v8iXD8KQQ==
BASE64
wget --quiet \
  --output-document=- \
  --method=POST \
  --header='Content-Type: application/octet-stream' \
  --body-file="$body_file" \
  https://api.example.com/blobs
