<?php

$curl = curl_init();
curl_setopt_array($curl, [
    CURLOPT_URL => "https://api.example.com/users",
    CURLOPT_CUSTOMREQUEST => "POST",
    CURLOPT_HTTPHEADER => [
        "X-Workspace: ferry",
        "Authorization: Basic dXNlcjpwQHNz",
        "Content-Type: application/json",
    ],
    CURLOPT_POSTFIELDS => "{\n  \"name\": \"Ada\",\n  \"tags\": [\"a\", \"b\"]\n}",
    CURLOPT_RETURNTRANSFER => true,
]);

$response = curl_exec($curl);
if ($response === false) {
    fwrite(STDERR, curl_error($curl) . "\n");
    exit(1);
}
echo curl_getinfo($curl, CURLINFO_RESPONSE_CODE), "\n", $response, "\n";
curl_close($curl);
