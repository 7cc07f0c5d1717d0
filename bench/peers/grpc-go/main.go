// Command grpc-go-peer serves grpc.testing.TestService with grpc-go, for bench/compare.
// EmptyCall answers an empty message; UnaryCall answers a payload of response_size zero bytes.
// Every other method answers UNIMPLEMENTED (the embedded default).
//
//	grpc-go-peer --port P
package main

import (
	"context"
	"flag"
	"log"
	"net"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "soukbench/grpctesting"
)

type testService struct {
	pb.UnimplementedTestServiceServer
}

func (testService) EmptyCall(context.Context, *pb.Empty) (*pb.Empty, error) {
	return &pb.Empty{}, nil
}

func (testService) UnaryCall(_ context.Context, request *pb.SimpleRequest) (*pb.SimpleResponse, error) {
	if request.ResponseSize < 0 {
		return nil, status.Error(codes.InvalidArgument, "response_size is negative")
	}
	return &pb.SimpleResponse{Payload: &pb.Payload{Body: make([]byte, request.ResponseSize)}}, nil
}

func main() {
	port := flag.String("port", "50051", "TCP port on 127.0.0.1")
	flag.Parse()
	listener, err := net.Listen("tcp", "127.0.0.1:"+*port)
	if err != nil {
		log.Fatalf("grpc-go-peer: %v", err)
	}
	server := grpc.NewServer()
	pb.RegisterTestServiceServer(server, testService{})
	if err := server.Serve(listener); err != nil {
		log.Fatalf("grpc-go-peer: %v", err)
	}
}
