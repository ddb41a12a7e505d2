# Content-Type left out: httpx sets it with the multipart boundary.
import httpx

url = "https://api.example.com/upload"
files = [
    ("title", (None, "Holiday")),
    ("meta", (None, "{\"a\":1}", "application/json")),
    ("photo", ("photo.png", open("/home/me/api/files/photo.png", "rb"), "image/png")),
]

response = httpx.request("POST", url, files=files)

print(response.status_code)
print(response.text)
