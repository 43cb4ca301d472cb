import { Delete, Get, HttpCode, Patch, Post, Put, type Type } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { RequestData } from '@app/trainees/decider';
import type { Trainee } from '@app/trainees/record';
import { WireBody } from '../../bodies/wire-body';
import { ApiController } from '../../openapi/api-controller.decorator';
import { IdParam } from '../../openapi/operation.decorators';
import { TraineeParams, type TraineeRequest } from '../trainee-request';
import { childNames, type ChildName, type ChildResource } from './child-resource';
import { childEndpointDocs } from './child-resource.docs';
import { ChildWriteCommand, type ChildWrite } from './child-write.command';
import { OwnTraineeQuery } from './own-trainee.query';

/**
 * The controller of a child resource, made once at start-up from its description: six endpoints
 * under /api/{version}/trainees/{trainee_id}/<name>s, guarded ({@link ApiController}), reads through
 * the trainee read model ({@link OwnTraineeQuery}), writes through {@link ChildWriteCommand}. 404
 * `Trainee(s) not found` for an unknown trainee or another provider's, `<Name>(s) not found` for an
 * unknown child; 422 with every failed rule, or naming `data` when it is missing; where the version
 * refuses writes to a trainee in recommended_for_award, withdrawn or awarded, 422 StateTransitionError.
 * Named `<Name>sController` (`PlacementsController`).
 */
export function childResourceController<N extends ChildName, R, F>(child: ChildResource<N, R, F>): Type<unknown> {
  const { path, idParam, tag } = childNames(child.name);
  const item = `:${idParam}`;
  const docs = childEndpointDocs(child);

  @ApiController(`trainees/:trainee_id/${path}`, tag)
  @IdParam('trainee_id')
  class ChildResourceController {
    constructor(
      readonly commands: CommandBus,
      readonly queries: QueryBus,
    ) {}

    /** GET …/<children>: 200 `{data: [Child]}` in creation order, `[]` when none (docs/DESIGN.md ruling 9). */
    @Get()
    @docs.list
    async list(@TraineeParams() r: TraineeRequest): Promise<{ data: unknown[] }> {
      const children = child.record.of(await this.trainee(r));
      return { data: children.map((c) => child.answer.one(r.contract.output, c)) };
    }

    /** GET …/<children>/{id}: 200 `{data: Child}`. */
    @Get(item)
    @docs.get
    async get(@TraineeParams(idParam) r: TraineeRequest): Promise<{ data: unknown }> {
      return { data: child.answer.one(r.contract.output, child.record.find(await this.trainee(r), r.itemId)) };
    }

    /** POST …/<children>: 201, the child as created (docs/DESIGN.md rulings 10, 2: a placement with `school_id`, a degree in an array). */
    @Post()
    @docs.create
    @HttpCode(201)
    async create(@TraineeParams() r: TraineeRequest, @WireBody(child.name) data: RequestData<F>): Promise<{ data: unknown }> {
      const added = await this.write<R>(r, { kind: 'add', data });
      return { data: child.answer.created(r.contract.output, added) };
    }

    /** PUT …/<children>/{id}: 200 `{data: Child}` (placements: fields sent replace the stored, §10.5; degrees: partial, §11.7). */
    @Put(item)
    @docs.replace
    put(@TraineeParams(idParam) r: TraineeRequest, @WireBody(child.name) data: RequestData<F>): Promise<{ data: unknown }> {
      return this.update(r, data);
    }

    /** PATCH …/<children>/{id}: as PUT. */
    @Patch(item)
    @docs.update
    patch(@TraineeParams(idParam) r: TraineeRequest, @WireBody(child.name) data: RequestData<F>): Promise<{ data: unknown }> {
      return this.update(r, data);
    }

    /** DELETE …/<children>/{id}: 200 `{data: Trainee}`, the trainee after the removal (docs/reference/API-FACTS.md §4). */
    @Delete(item)
    @docs.remove
    @HttpCode(200)
    async remove(@TraineeParams(idParam) r: TraineeRequest): Promise<{ data: unknown }> {
      const trainee = await this.write<Trainee>(r, { kind: 'remove' });
      return { data: r.contract.output.serializeTrainee(trainee, { nested: true }) };
    }

    private async update(r: TraineeRequest, data: RequestData<F>): Promise<{ data: unknown }> {
      const updated = await this.write<R>(r, { kind: 'update', data });
      return { data: child.answer.one(r.contract.output, updated) };
    }

    /** Sends the write; answers the child (add, update) or the trainee (remove). */
    private write<A>(r: TraineeRequest, write: ChildWrite<F>): Promise<A> {
      return this.commands.execute<ChildWriteCommand<N, R, F>, A>(new ChildWriteCommand(child, write, r));
    }

    /** The caller's trainee, as the read model holds it. */
    private trainee(r: TraineeRequest): Promise<Trainee> {
      return this.queries.execute<OwnTraineeQuery, Trainee>(new OwnTraineeQuery(r.caller, r.traineeId));
    }
  }
  return Object.defineProperty(ChildResourceController, 'name', { value: `${tag}Controller` });
}
