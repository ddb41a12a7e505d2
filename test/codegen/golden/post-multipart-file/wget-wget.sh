# Wget has no multipart support: the body is built in a temporary file.
body_file=$(mktemp)
{
  printf %s $'------FerryFormBoundary7MA4YWxkTrZu0gW\r\nContent-Disposition: form-data; name="title"\r\n\r\nHoliday\r\n------FerryFormBoundary7MA4YWxkTrZu0gW\r\nContent-Disposition: form-data; name="meta"\r\nContent-Type: application/json\r\n\r\n{"a":1}\r\n------FerryFormBoundary7MA4YWxkTrZu0gW\r\nContent-Disposition: form-data; name="photo"; filename="photo.png"\r\nContent-Type: image/png\r\n\r\n'
  cat /home/me/api/files/photo.png
  printf %s $'\r\n------FerryFormBoundary7MA4YWxkTrZu0gW--\r\n'
} > "$body_file"
wget --quiet \
  --output-document=- \
  --method=POST \
  --header='Content-Type: multipart/form-data; boundary=----FerryFormBoundary7MA4YWxkTrZu0gW' \
  --body-file="$body_file" \
  https://api.example.com/upload
