"""Drip 'n Dash (peer-to-peer laundry in the Rutgers dorms, USD): the demo student gets a price
estimate and submits a job while watching it as a stream; the demo Dasher of the same dorm asks
for work, accepts it and takes it through the nine stages, with the final cost at stage 7.

    python examples/drip_n_dash.py --target localhost:50051     # against souk-server --demo
"""
import argparse
import queue
import threading

from souk_client import Session, SoukError, pb, request_id
from souk_client.format import enum_value, money, run

MARKETPLACE = "Drip 'n Dash"
STAGE = pb.JobStage


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", default="localhost:50051", help="host:port of souk-server --demo")
    target = parser.parse_args().target

    student = Session.sign_in(target, MARKETPLACE, "customer.demo@rutgers.edu", "DripNDash-customer-2026")
    dasher = Session.sign_in(target, MARKETPLACE, "dasher.demo@rutgers.edu", "DripNDash-courier-2026")
    print(f"signed in: {student.account.given_name} (student), {dasher.account.given_name} (Dasher)")

    folding = pb.LaundryAddOn.LAUNDRY_ADD_ON_FOLDING
    estimate = student.laundry.EstimateJobPrice(pb.EstimateJobPriceRequest(loads_estimate=2, add_ons=[folding]))
    print(f"estimate for 2 loads with folding: {money(estimate.total)}")
    job = student.laundry.SubmitJob(pb.SubmitJobRequest(
        request_id=request_id(), loads_estimate=2, add_ons=[folding], instructions="Delicates on cold, please"))
    print(f"job submitted: {enum_value(pb.JobStage, job.stage)}")

    # The student's phone follows the job: a server stream read on its own thread.
    stream = student.laundry.WatchJob(pb.WatchJobRequest(job_id=job.id))
    events = queue.Queue()

    def follow():
        try:
            for event in stream:
                events.put(event)
        except SoukError as error:
            if error.code().name != "CANCELLED":
                events.put(error)

    follower = threading.Thread(target=follow, daemon=True)
    follower.start()

    # The Dasher asks for work until this job comes (one left by an earlier run is denied).
    while True:
        offered = dasher.laundry.RequestWork(pb.RequestWorkRequest()).job
        if offered.id == job.id:
            break
        dasher.laundry.DenyJob(pb.DenyJobRequest(job_id=offered.id))
    job = dasher.laundry.AcceptJob(pb.AcceptJobRequest(job_id=job.id))
    for stage in range(STAGE.JOB_STAGE_DASHER_ON_WAY_FOR_PICKUP, STAGE.JOB_STAGE_DROPPED_OFF_LAUNDRY + 1):
        fields = {}
        if stage == STAGE.JOB_STAGE_FINISHED_DRYING:
            fields = dict(actual_loads=2, machine_cost_total=pb.Money(amount_minor=700, currency_code="USD"))
        job = dasher.laundry.AdvanceJobStage(pb.AdvanceJobStageRequest(job_id=job.id, target_stage=stage, **fields))

    print("what the student saw:")
    while True:
        event = events.get(timeout=30)
        if isinstance(event, SoukError):
            raise event
        print(f"  #{event.sequence:<3} {enum_value(pb.JobStage, event.job.stage)}")
        if event.job.stage == STAGE.JOB_STAGE_DROPPED_OFF_LAUNDRY:
            break
    stream.cancel()
    print(f"dropped off: final price {money(job.final_price.total)}, {enum_value(pb.JobState, job.state)}")
    for session in (student, dasher):
        session.close()


if __name__ == "__main__":
    run(main)
