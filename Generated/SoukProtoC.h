#include "grpc/testing/empty.pb-c.h"
#include "grpc/testing/messages.pb-c.h"
#include "grpc/testing/test.pb-c.h"
