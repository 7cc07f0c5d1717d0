// grpc.testing.TestService on the gRPC C++ library's callback API, for bench/compare.
// EmptyCall answers an empty message; UnaryCall answers a payload of response_size zero bytes.
// Every other method answers UNIMPLEMENTED (the generated default).
//
//   grpc-cpp-peer --port P
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>

#include <grpcpp/grpcpp.h>

#include "grpc/testing/test.grpc.pb.h"

namespace {

class TestService final : public grpc::testing::TestService::CallbackService {
  grpc::ServerUnaryReactor* EmptyCall(grpc::CallbackServerContext* context,
                                      const grpc::testing::Empty*,
                                      grpc::testing::Empty*) override {
    grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
    reactor->Finish(grpc::Status::OK);
    return reactor;
  }

  grpc::ServerUnaryReactor* UnaryCall(grpc::CallbackServerContext* context,
                                      const grpc::testing::SimpleRequest* request,
                                      grpc::testing::SimpleResponse* response) override {
    grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
    if (request->response_size() < 0) {
      reactor->Finish(grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "response_size is negative"));
      return reactor;
    }
    response->mutable_payload()->mutable_body()->assign(static_cast<size_t>(request->response_size()), '\0');
    reactor->Finish(grpc::Status::OK);
    return reactor;
  }
};

}  // namespace

int main(int argc, char** argv) {
  std::string port = "50051";
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--port") == 0) {
      port = argv[i + 1];
    } else {
      std::cerr << "unknown option " << argv[i] << "\n";
      return 2;
    }
  }
  TestService service;
  grpc::ServerBuilder builder;
  builder.AddListeningPort("127.0.0.1:" + port, grpc::InsecureServerCredentials());
  builder.RegisterService(&service);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (!server) {
    std::cerr << "grpc-cpp-peer: could not listen on port " << port << "\n";
    return 1;
  }
  server->Wait();
  return 0;
}
