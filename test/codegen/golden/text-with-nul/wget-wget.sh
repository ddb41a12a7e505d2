# The body is binary: it is decoded from Base64 into a temporary file.
body_file=$(mktemp)
base64 -d > "$body_file" <<'BASE64'
YQBiAWMbWzBtf2Q=
BASE64
wget --quiet \
  --output-document=- \
  --method=POST \
  --header='Content-Type: text/plain' \
  --body-file="$body_file" \
  https://api.example.com/raw
