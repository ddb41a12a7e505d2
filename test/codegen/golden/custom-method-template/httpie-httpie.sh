http --ignore-stdin PROPFIND '{{baseUrl}}/dav/{{folder}}?depth={{depth}}' \
  Depth:1
