module sdp

go 1.19
