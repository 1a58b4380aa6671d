typedef int pb_http_placeholder;
