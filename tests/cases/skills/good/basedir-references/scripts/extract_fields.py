print('fields')
