# Content-Type left out: HTTPie sets it with the multipart boundary.
# HTTPie cannot set a Content-Type on text parts; sent without it: meta.
http --ignore-stdin --multipart POST https://api.example.com/upload \
  title=Holiday \
  'meta={"a":1}' \
  'photo@/home/me/api/files/photo.png;type=image/png'
