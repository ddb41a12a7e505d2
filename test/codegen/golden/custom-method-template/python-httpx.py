import httpx

url = "{{baseUrl}}/dav/{{folder}}?depth={{depth}}"
headers = [
    ("Depth", "1"),
]

response = httpx.request("PROPFIND", url, headers=headers)

print(response.status_code)
print(response.text)
