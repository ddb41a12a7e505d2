import requests

url = "https://api.example.com/login?api_key=k3y%2B1"
headers = {
    "Content-Type": "application/x-www-form-urlencoded",
}
body = "user=ada&pass=p%40ss+word".encode("utf-8")

response = requests.request("POST", url, headers=headers, data=body)

print(response.status_code)
print(response.text)
