# Host and Content-Length left out: requests sets them from the URL and the body.
# Connection left out: it manages one connection, not the request, and Ferry does not send it either.
# Accept-Encoding left out: requests sends its own and decompresses the answer.
import requests

url = "https://api.example.com/things"
headers = {
    "Content-Type": "application/json",
    "X-Empty": "",
}
body = "{\"q\":\"body on GET\"}".encode("utf-8")

response = requests.request("GET", url, headers=headers, data=body)

print(response.status_code)
print(response.text)
