import requests

url = "{{baseUrl}}/dav/{{folder}}?depth={{depth}}"
headers = {
    "Depth": "1",
}

response = requests.request("PROPFIND", url, headers=headers)

print(response.status_code)
print(response.text)
