import httpx

url = "https://api.example.com/notes/1"
headers = [
    ("Authorization", "Bearer eyJhbGciOi.J9"),
    ("Content-Type", "text/plain"),
]
body = "Hello, world.\nSecond line.".encode("utf-8")

response = httpx.request("PUT", url, headers=headers, content=body)

print(response.status_code)
print(response.text)
