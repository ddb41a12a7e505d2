<?php

$curl = curl_init();
curl_setopt_array($curl, [
    CURLOPT_URL => "https://api.example.com/graphql",
    CURLOPT_CUSTOMREQUEST => "POST",
    CURLOPT_HTTPHEADER => [
        "Authorization: Bearer cached-token-123",
        "Content-Type: application/json",
    ],
    CURLOPT_POSTFIELDS => "{\"query\":\"query User(\$id: ID!) { user(id: \$id) { name } }\",\"variables\":{\"id\":\"1\"},\"operationName\":\"User\"}",
    CURLOPT_RETURNTRANSFER => true,
]);

$response = curl_exec($curl);
if ($response === false) {
    fwrite(STDERR, curl_error($curl) . "\n");
    exit(1);
}
echo curl_getinfo($curl, CURLINFO_RESPONSE_CODE), "\n", $response, "\n";
curl_close($curl);
