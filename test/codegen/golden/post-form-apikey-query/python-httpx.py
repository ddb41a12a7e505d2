import httpx

url = "https://api.example.com/login?api_key=k3y%2B1"
headers = [
    ("Content-Type", "application/x-www-form-urlencoded"),
]
body = "user=ada&pass=p%40ss+word".encode("utf-8")

response = httpx.request("POST", url, headers=headers, content=body)

print(response.status_code)
print(response.text)
