wget --quiet \
  --output-document=- \
  --method=PROPFIND \
  --header='Depth: 1' \
  '{{baseUrl}}/dav/{{folder}}?depth={{depth}}'
